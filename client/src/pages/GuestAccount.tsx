// Signing out, with a guest's boards in mind: a guest's session is their only key, so signing out
// would lose every board they own for good. They are warned first and offered to keep everything
// by turning the guest into a full account (email + password) — the same user, so the same boards.
import { fieldMessages, UpgradeBody } from '@tandem/shared';
import { type FormEvent, useRef, useState } from 'react';
import { ApiError, api } from '../api/client.ts';
import { ModalDialog } from '../board/ui/ModalDialog.tsx';
import { navigate } from '../router.tsx';
import { useSession } from '../session.ts';
import { Field } from './Field.tsx';

export function SignOutButton() {
  const user = useSession((s) => s.user);
  const setUser = useSession((s) => s.setUser);
  const [dialog, setDialog] = useState<'sign-out' | 'keep' | null>(null);
  const signOut = async () => {
    try {
      await api.logout();
    } finally {
      setUser(null);
      navigate('/signin', { replace: true });
    }
  };
  if (!user) return null;
  return (
    <>
      {user.isGuest && (
        <button type="button" className="btn small" onClick={() => setDialog('keep')}>
          Create account
        </button>
      )}
      <button
        type="button"
        className="btn small ghost"
        onClick={() => (user.isGuest ? setDialog('sign-out') : void signOut())}
      >
        Sign out
      </button>
      {dialog && (
        <UpgradeDialog
          warning={dialog === 'sign-out'}
          onClose={() => setDialog(null)}
          onSignOut={() => void signOut()}
        />
      )}
    </>
  );
}

function UpgradeDialog({
  warning,
  onClose,
  onSignOut,
}: {
  warning: boolean;
  onClose(): void;
  onSignOut(): void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const setUser = useSession((s) => s.setUser);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const parsed = UpgradeBody.safeParse(Object.fromEntries(new FormData(e.currentTarget)));
    if (!parsed.success) return setErrors(fieldMessages(parsed.error));
    setBusy(true);
    try {
      const { user } = await api.upgrade(parsed.data);
      setUser(user);
      ref.current?.close();
    } catch (err) {
      if (err instanceof ApiError)
        setErrors(Object.keys(err.fields).length ? err.fields : { form: err.message });
      else setErrors({ form: 'Something went wrong. Try again.' });
    } finally {
      setBusy(false);
    }
  };
  const title = warning ? 'Sign out of a guest account?' : 'Keep your boards with an account';
  return (
    <ModalDialog title={title} closeButton={false} dialogRef={ref} onClose={onClose}>
      <section>
        {warning && (
          <p className="warning" role="alert">
            You are signed in as a guest. If you sign out, you lose access to your boards for good: nobody can
            sign back in to a guest account.
          </p>
        )}
        <p className="hint">
          Add an email and a password to turn this guest into a full account. You keep every board and your
          name.
        </p>
        <form onSubmit={(e) => void submit(e)} noValidate aria-label="Create account from guest">
          <Field label="Email" name="email" type="email" error={errors.email} autoComplete="email" />
          <Field
            label="Password"
            name="password"
            type="password"
            error={errors.password}
            autoComplete="new-password"
          />
          {errors.form && (
            <p className="error" role="alert">
              {errors.form}
            </p>
          )}
          <div className="row">
            <button type="submit" className="btn primary" disabled={busy}>
              Create account and keep my boards
            </button>
            {warning ? (
              <button type="button" className="btn danger" onClick={onSignOut}>
                Sign out and lose my boards
              </button>
            ) : null}
            <button type="button" className="btn ghost" onClick={() => ref.current?.close()}>
              Cancel
            </button>
          </div>
        </form>
      </section>
    </ModalDialog>
  );
}
