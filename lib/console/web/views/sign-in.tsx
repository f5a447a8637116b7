/**
 * Sign in with a Service-API-Key. The key is checked with the call any key
 * may make, whatever its role (GET /dev/v1/me), whose answer the console
 * keeps: what the key may do, and where it starts (the workspace's default
 * branch). The key is kept for this tab's session only. A local runtime's
 * start banner links here with a one-time code instead of the key, which the
 * page exchanges once and removes from the address bar.
 */
import { useEffect, useState } from 'preact/hooks';
import { ApiFailure, type Api } from '../api.ts';
import type { Caller } from '../permissions.ts';
import type { Session } from '../session.ts';
import { Failure } from '../ui/failure.tsx';

interface Props {
  api: Api;
  code: string | undefined;
  reason: string | undefined;
  onSignedIn(session: Session, caller: Caller): void;
}

/**
 * The local runtime's sign-in link: a one-time code for the demo key
 * (lib/local/console-host.ts); deployed, this path does not exist. A refusal
 * is shown as the server answered it (its status and code); only a request
 * that got no answer says so.
 */
async function redeem(code: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch('session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) });
  } catch (cause) {
    throw new ApiFailure(
      0,
      'network_error',
      `The sign-in link could not be checked (${cause instanceof Error ? cause.message : String(cause)}): sign in with the API key.`,
      {},
    );
  }
  const body = (await response.json().catch(() => ({}))) as { apiKey?: string; code?: string; message?: string };
  if (response.ok && body.apiKey) return body.apiKey;
  throw new ApiFailure(
    response.status,
    body.code ?? 'sign_in_link_refused',
    body.message ?? 'This sign-in link has been used or has expired: sign in with the API key.',
    {},
  );
}

export function SignIn({ api, code, reason, onSignedIn }: Props) {
  const [apiKey, setApiKey] = useState('');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const signIn = async (key: string) => {
    setBusy(true);
    setError(undefined);
    try {
      const caller = await api.data(api.client.GET('/dev/v1/me', { headers: { 'Service-API-Key': key } }));
      // A key limited to branches starts on one it may use.
      const { defaultBranch } = caller.workspace;
      const branch = !caller.branches || caller.branches.includes(defaultBranch) ? defaultBranch : caller.branches[0]!;
      onSignedIn({ apiKey: key, branch }, caller);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  useEffect(() => {
    if (!code) return;
    history.replaceState(null, '', '#/sign-in');
    redeem(code).then(signIn, setError);
  }, [code]);

  return (
    <main class="sign-in" id="main">
      <h1>Rules console</h1>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void signIn(apiKey.trim());
        }}
      >
        <label for="api-key">Service API key</label>
        <input id="api-key" type="password" autoComplete="off" required value={apiKey} onInput={(e) => setApiKey(e.currentTarget.value)} />
        <p class="hint">Kept in this tab only, until you sign out or close it. Every call the console makes is an API call with this key.</p>
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      {reason && !error && <p role="status">You were signed out: {reason}</p>}
      <Failure error={error} title="Could not sign in" />
    </main>
  );
}
