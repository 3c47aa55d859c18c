// FocusOptions.focusVisible (HTML: whether a script's focus shows the focus ring) is in Chromium,
// Firefox and Safari but not yet in TypeScript's DOM types. A browser without it ignores it.
interface FocusOptions {
  focusVisible?: boolean;
}
