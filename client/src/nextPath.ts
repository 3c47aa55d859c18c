// Where to go after signing in (`?next=`): only a path on this site. Everything else — another
// origin, a protocol-relative `//host`, a backslash that browsers read as a slash, control
// characters that URL parsing drops — falls back, so a crafted link can neither send people
// elsewhere nor make the app call history.replaceState with a foreign URL (a SecurityError).
const BASE = 'http://same-site.invalid';

export function safeNext(raw: string | null | undefined, fallback = '/boards'): string {
  if (!raw?.startsWith('/') || raw.startsWith('//') || raw.includes('\\')) return fallback;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(raw)) return fallback;
  try {
    const url = new URL(raw, BASE);
    if (url.origin !== BASE) return fallback;
    return url.pathname + url.search + url.hash;
  } catch {
    return fallback;
  }
}
