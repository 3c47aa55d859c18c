// Sign in, sign up and "Continue as guest" (docs/api.md §2), validated with the shared schemas before
// anything is sent; server answers (wrong password, email taken, rate limited) shown as sentences.
import {
  fieldMessages,
  GuestBody,
  isLinkToken,
  type JoinPreviewAnswer,
  LoginBody,
  SignupBody,
  type User,
} from '@tandem/shared';
import { type FormEvent, useEffect, useState } from 'react';
import { ApiError, api } from '../api/client.ts';
import { safeNext } from '../nextPath.ts';
import { Link, navigate, useLocation } from '../router.tsx';
import { useSession } from '../session.ts';
import { Field } from './Field.tsx';
import { DEAD_INVITE_SENTENCE, INVITED_SENTENCE, inviteTokenOf, inviteVerb, isDeadInvite } from './invite.ts';
import './auth.css';

function useNext(): string {
  const { search } = useLocation();
  return safeNext(search.get('next'));
}

function useSubmit() {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const setUser = useSession((s) => s.setUser);
  const next = useNext();
  const submit = async (call: () => Promise<{ user: User }>, scope: string) => {
    setBusy(true);
    try {
      const { user } = await call();
      setUser(user);
      navigate(next, { replace: true });
    } catch (e) {
      if (e instanceof ApiError)
        setErrors({ ...e.fields, [`${scope}_`]: Object.keys(e.fields).length ? '' : e.message });
      else setErrors({ [`${scope}_`]: 'Something went wrong. Try again.' });
    } finally {
      setBusy(false);
    }
  };
  /** An onSubmit that checks the form with the shared schema, then sends it. */
  const onSubmitWith =
    <T,>(schema: Schema<T>, send: (body: T) => Promise<{ user: User }>, scope: string) =>
    (e: FormEvent<HTMLFormElement>) => {
      e.preventDefault();
      const parsed = schema.safeParse(Object.fromEntries(new FormData(e.currentTarget)));
      if (!parsed.success) return setErrors(fieldMessages(parsed.error));
      void submit(() => send(parsed.data), scope);
    };
  return { errors, setErrors, busy, submit, next, onSubmitWith };
}

type Schema<T> = {
  safeParse(
    data: unknown,
  ): { success: true; data: T } | { success: false; error: Parameters<typeof fieldMessages>[0] };
};

function GuestForm({ s }: { s: ReturnType<typeof useSubmit> }) {
  const onGuest = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = Object.fromEntries(new FormData(e.currentTarget));
    const parsed = GuestBody.safeParse({ name: data.guestName });
    if (!parsed.success)
      return s.setErrors({ guestName: fieldMessages(parsed.error).name ?? 'Enter a name.' });
    void s.submit(() => api.guest(parsed.data), 'guest');
  };
  return (
    <form className="guest" onSubmit={onGuest} noValidate aria-label="Continue as guest">
      <div className="divider">
        <span>or</span>
      </div>
      <Field label="Your name" name="guestName" error={s.errors.guestName} autoComplete="nickname" />
      <FormError message={s.errors.guest_} />
      <button type="submit" className="btn wide" disabled={s.busy}>
        Continue as guest
      </button>
    </form>
  );
}

function FormError({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p className="error" role="alert">
      {message}
    </p>
  );
}

/** Carries where to go after signing in across the sign-in/sign-up switch. */
const withNext = (path: string, next: string) =>
  next === '/boards' ? path : `${path}?next=${encodeURIComponent(next)}`;

type InviteState = { kind: 'none' } | { kind: 'valid'; invite: JoinPreviewAnswer } | { kind: 'dead' };

/**
 * Arriving from an invite link: which board it opens, so the sign-in page is not a dead end; or,
 * when the link is revoked, unknown or its board deleted (the preview answers 404, which reveals
 * nothing else), that it is dead, at once, before anyone signs up for nothing.
 */
function useInvite(next: string): InviteState {
  const token = inviteTokenOf(next);
  const [state, setState] = useState<InviteState>({ kind: 'none' });
  useEffect(() => {
    // The page stays mounted when `next` changes (the dead link's "Sign in"): start over.
    setState({ kind: 'none' });
    if (!token) return;
    let live = true;
    const decoded = decodeURIComponent(token);
    if (!isLinkToken(decoded)) {
      setState({ kind: 'dead' });
      return;
    }
    api.joinPreview(decoded).then(
      (invite) => live && setState({ kind: 'valid', invite }),
      (e: unknown) => {
        // A network error or a rate limit says nothing about the link: the form stays.
        if (live && isDeadInvite(e)) setState({ kind: 'dead' });
      },
    );
    return () => {
      live = false;
    };
  }, [token]);
  return state;
}

function Invite({ invite }: { invite: JoinPreviewAnswer }) {
  return (
    <p className="invite" role="note">
      {invite.ownerName ? `${invite.ownerName} invited you` : 'You are invited'} to {inviteVerb(invite.role)}{' '}
      <strong>“{invite.title}”</strong>.
    </p>
  );
}

/** The page instead of the form when the invite link is dead: nothing to sign up for. */
function DeadInvite() {
  return (
    <Shell title="Cannot join" subtitle="The link you followed no longer opens a board.">
      <p role="alert">{DEAD_INVITE_SENTENCE}</p>
      <Link className="btn primary wide" href="/">
        Go to Tandem
      </Link>
      <p className="switch">
        Have an account? <Link href="/signin">Sign in</Link>
      </p>
    </Shell>
  );
}

function Shell({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle: string;
  children: React.ReactNode;
}) {
  return (
    <main className="auth">
      <div className="auth-card">
        <div className="brand">
          <img src="/favicon.svg" alt="" width={36} height={36} />
          <span>Tandem</span>
        </div>
        <h1>{title}</h1>
        <p className="hint">{subtitle}</p>
        {children}
      </div>
    </main>
  );
}

/**
 * The sign-in and the sign-up page, which differ only in their words, the schema and call that
 * send the form, and whether a name is asked for (a new account's password is a new one).
 */
function AccountPage<T>(props: {
  title: string;
  subtitle: string;
  /** The form's accessible name. */
  form: string;
  submit: string;
  scope: 'login' | 'signup';
  schema: Schema<T>;
  send: (body: T) => Promise<{ user: User }>;
  askName: boolean;
  switchPrompt: string;
  switchLink: string;
  switchTo: string;
}) {
  const s = useSubmit();
  const onSubmit = s.onSubmitWith(props.schema, props.send, props.scope);
  const invite = useInvite(s.next);
  if (invite.kind === 'dead') return <DeadInvite />;
  return (
    <Shell title={props.title} subtitle={inviteTokenOf(s.next) ? INVITED_SENTENCE : props.subtitle}>
      {invite.kind === 'valid' && <Invite invite={invite.invite} />}
      <form onSubmit={onSubmit} noValidate aria-label={props.form}>
        {props.askName && <Field label="Name" name="name" error={s.errors.name} autoComplete="name" />}
        <Field label="Email" name="email" type="email" error={s.errors.email} autoComplete="email" />
        <Field
          label="Password"
          name="password"
          type="password"
          error={s.errors.password}
          autoComplete={props.askName ? 'new-password' : 'current-password'}
        />
        <FormError message={s.errors[`${props.scope}_`]} />
        <button type="submit" className="btn primary wide" disabled={s.busy}>
          {props.submit}
        </button>
      </form>
      <GuestForm s={s} />
      <p className="switch">
        {props.switchPrompt} <Link href={withNext(props.switchTo, s.next)}>{props.switchLink}</Link>
      </p>
    </Shell>
  );
}

export function SignIn() {
  return (
    <AccountPage
      title="Sign in"
      subtitle="Welcome back. Pick up where your team left off."
      form="Sign in"
      submit="Sign in"
      scope="login"
      schema={LoginBody}
      send={api.login}
      askName={false}
      switchPrompt="New here?"
      switchLink="Create an account"
      switchTo="/signup"
    />
  );
}

export function SignUp() {
  return (
    <AccountPage
      title="Create your account"
      subtitle="Boards you create are yours; invite anyone with a link."
      form="Sign up"
      submit="Create account"
      scope="signup"
      schema={SignupBody}
      send={api.signup}
      askName
      switchPrompt="Already have an account?"
      switchLink="Sign in"
      switchTo="/signin"
    />
  );
}
