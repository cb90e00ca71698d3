// Sign-in with an organization's API key and secret. Neither is stored by the page: they go to the server once, which
// answers with a session cookie. After sign-in the merchant returns to the page they were sent away from.
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useEffect } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { messageOf } from '../../api/errors';
import { Field } from '../../components/field';
import { Loading } from '../../components/status';
import { isServerPath, safeNext } from '../bridge/connect-model';
import { useSession } from './session';

export function SignInPage() {
  const { session, signIn } = useSession();
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const navigate = useNavigate();
  // A server path (/shopify/install sends a merchant who is not signed in here) is left with a full navigation: the
  // router knows no such route. Signed in now, or already (the cross-site redirect from Shopify's admin carried no
  // SameSite=Strict cookie, but this page's own request does).
  const toServer = isServerPath(next);
  const attempt = useMutation({
    mutationFn: ({ apiKey, apiSecret }: { apiKey: string; apiSecret: string }) => signIn(apiKey, apiSecret),
    onSuccess: () => {
      if (!toServer) navigate(next, { replace: true });
    },
  });
  const error = attempt.error ? messageOf(attempt.error) : null;
  useEffect(() => {
    if (session && toServer) window.location.assign(next);
  }, [session, toServer, next]);

  if (session === undefined) return <Loading label="Opening the console…" />;
  if (session && toServer) return <Loading label="Continuing to Shopify…" />;
  if (session) return <Navigate to={next} replace />;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    attempt.mutate({ apiKey: String(form.get('api_key') ?? '').trim(), apiSecret: String(form.get('api_secret') ?? '').trim() });
  };

  return (
    <main className="sign-in" id="main">
      <form className="card" onSubmit={submit} aria-describedby={error ? 'sign-in-error' : undefined}>
        <h1>Sign in to Pimbridge</h1>
        {params.get('ended') && !error && (
          <p role="status" className="banner info">
            Your session has ended. Sign in again to continue where you were.
          </p>
        )}
        <p className="hint">Use an API key and its secret of your organization (your operator creates them).</p>
        <Field label="API key">
          <input name="api_key" autoComplete="username" required spellCheck={false} />
        </Field>
        <Field label="API secret">
          <input name="api_secret" type="password" autoComplete="current-password" required />
        </Field>
        {error && (
          <p id="sign-in-error" role="alert" className="banner error">
            {error}
          </p>
        )}
        <button type="submit" className="button primary" disabled={attempt.isPending}>
          {attempt.isPending ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
