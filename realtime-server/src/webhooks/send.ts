// One attempt of one delivery: the body signed as docs/api.md §15 says, POSTed with a timeout, to
// an address checked at send time. The answer is a status and, when it failed, a sentence the
// owner reads in the Share dialog.
import { createHmac } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { signedText, WEBHOOK_DELIVERY_HEADER, WEBHOOK_SIGNATURE_HEADER } from '@tandem/shared';
import { checkBeforeSend, guardedLookup, UnsafeUrlError } from './addresses.ts';

/** `t=<unix>,v1=<hex HMAC-SHA256(secret, t + "." + body)>` */
export function signatureHeader(secret: string, unixSeconds: number, body: string): string {
  const mac = createHmac('sha256', secret).update(signedText(unixSeconds, body)).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

export interface Attempt {
  ok: boolean;
  responseStatus: number | null;
  error: string | null;
  durationMs: number;
}

export interface SendOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  /** Aborts the attempt (the instance is stopping); its claim then lapses and it is sent again. */
  signal?: AbortSignal;
  now?: () => number;
}

/** What a failed request's error means, as a sentence for the owner. */
function sentenceOf(error: unknown, timeoutMs: number): string {
  if (error instanceof UnsafeUrlError) return error.message;
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ETIMEDOUT_WEBHOOK':
      return `The receiver did not answer within ${Math.round(timeoutMs / 100) / 10} s.`;
    case 'ECONNREFUSED':
      return 'The receiver refused the connection.';
    case 'ECONNRESET':
      return 'The receiver closed the connection before answering.';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'The receiver’s host name does not resolve.';
    default:
      if (code?.startsWith('ERR_TLS') || code?.includes('CERT')) {
        return `The receiver’s TLS certificate was refused (${code}).`;
      }
      return `The request failed: ${(error as Error).message}`;
  }
}

export async function sendDelivery(
  target: string,
  secret: string,
  deliveryId: string,
  body: string,
  options: SendOptions,
): Promise<Attempt> {
  const now = options.now ?? Date.now;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let url: URL;
  try {
    url = new URL(target);
    checkBeforeSend(url, options.allowPrivate);
  } catch (error) {
    return { ok: false, responseStatus: null, error: sentenceOf(error, options.timeoutMs), durationMs: 0 };
  }
  const bytes = Buffer.from(body);
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<Attempt>((resolve) => {
    let settled = false;
    const done = (attempt: Omit<Attempt, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...attempt, durationMs: elapsed() });
    };
    const req = request(url, {
      method: 'POST',
      lookup: guardedLookup(options.allowPrivate) as never,
      headers: {
        'content-type': 'application/json',
        'content-length': bytes.length,
        'user-agent': 'Tandem-Webhooks/1',
        [WEBHOOK_SIGNATURE_HEADER]: signatureHeader(secret, Math.floor(now() / 1000), body),
        [WEBHOOK_DELIVERY_HEADER]: deliveryId,
      },
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const timer = setTimeout(() => {
      req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT_WEBHOOK' }));
    }, options.timeoutMs);
    req.on('response', (res) => {
      // The body is read and dropped (a receiver's answer is not kept); a 2xx is success.
      res.resume();
      const status = res.statusCode ?? 0;
      res.on('end', () =>
        done(
          status >= 200 && status < 300
            ? { ok: true, responseStatus: status, error: null }
            : { ok: false, responseStatus: status, error: `The receiver answered ${status}.` },
        ),
      );
      res.on('error', (error) =>
        done({ ok: false, responseStatus: status, error: sentenceOf(error, options.timeoutMs) }),
      );
    });
    req.on('error', (error) =>
      done({ ok: false, responseStatus: null, error: sentenceOf(error, options.timeoutMs) }),
    );
    req.end(bytes);
  });
}
