/**
 * The console: a page for the people who write rules, over the same public
 * API consumers call. A person signs in at the service's issuer (their
 * tokens held by a worker: ./people/), or with a Service-API-Key, kept for
 * the tab's session only; it shows the rules, workflows, credentials and remote
 * of that key's workspace on the chosen branch, and to a key that manages
 * the workspace, its keys and audit log. Every control names the operation
 * it calls, and what the key may not do is disabled or hidden, with why
 * (`permissions.ts`).
 */
import './styles.css';
import { render } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { createApi } from './api.ts';
import { ConsoleContext } from './context.ts';
import { permissionsFor, readRequirements, type Caller, type OperationId } from './permissions.ts';
import { hrefOf, mayLeave, usePlace, type EntityType, type Place } from './route.ts';
import { loadSession, saveSession, sessionIdentity, type Session } from './session.ts';
import { configureTokens, consoleUrl, readSignInSettings } from './people/sign-in-settings.ts';
import { isSignInReturn, signOutPerson, startSignIn } from './people/token-client.ts';
import { Failure } from './ui/failure.tsx';
import { useLoad } from './ui/use-load.ts';
import { AuditView } from './views/audit.tsx';
import { BranchSwitcher } from './views/branch-switcher.tsx';
import { ChangeRequestView } from './views/change-request.tsx';
import { AuthorizationView } from './views/authorization.tsx';
import { EntityList } from './views/entity-list.tsx';
import { KeysView } from './views/keys.tsx';
import { RemoteView } from './views/remote.tsx';
import { RuleEditor } from './views/rule-editor.tsx';
import { SignIn } from './views/sign-in.tsx';
import { WorkflowEditor } from './views/workflow-editor.tsx';

function View({ place }: { place: Place }) {
  switch (place.view) {
    case 'rule':
      return <RuleEditor id={place.id} />;
    case 'workflow':
      return <WorkflowEditor id={place.id} />;
    case 'changeRequest':
      return <ChangeRequestView entityType={place.entityType} entityId={place.id} changeRequestId={place.changeRequestId} />;
    case 'authorization':
      return <AuthorizationView />;
    case 'remote':
      return <RemoteView />;
    case 'keys':
      return <KeysView />;
    case 'audit':
      return <AuditView />;
    case 'list':
      return <EntityList entityType={place.entityType} />;
    default:
      return <EntityList entityType="rule" />;
  }
}

/** Whether a place is in the rules' (or the workflows') section: their list, one of them, or one's change request. */
const about = (entityType: EntityType) => (p: Place) => p.view === entityType || ('entityType' in p && p.entityType === entityType);

/** The sections; one that names the operation it opens with is listed only to keys that may call it (the admin area). */
const sections: { href: string; label: string; active(p: Place): boolean; opens?: OperationId }[] = [
  { href: hrefOf.rules, label: 'Rules', active: about('rule') },
  { href: hrefOf.workflows, label: 'Workflows', active: about('workflow') },
  { href: hrefOf.authorization, label: 'Authorization', active: (p) => p.view === 'authorization' },
  { href: hrefOf.remote, label: 'Remote', active: (p) => p.view === 'remote' },
  { href: hrefOf.keys, label: 'Keys', active: (p) => p.view === 'keys', opens: 'listKeys' },
  { href: hrefOf.audit, label: 'Audit', active: (p) => p.view === 'audit', opens: 'listAudit' },
];

function App() {
  const [session, setSession] = useState(loadSession);
  // What the key may do: the sign-in asked it; after a reload, it is asked again, once.
  const [caller, setCaller] = useState<Caller>();
  const [signedOutBecause, setSignedOutBecause] = useState<string>();
  // Back from the issuer with a code: the sign-in page finishes it, whatever this tab's session said before.
  const [returning, setReturning] = useState(isSignInReturn);
  const place = usePlace();
  const change = (next: Session | undefined) => {
    saveSession(next);
    setSession(next);
    if (!next) setCaller(undefined);
  };
  const api = useMemo(
    () =>
      createApi(loadSession, (failure) => {
        setSignedOutBecause(failure.message);
        change(undefined);
      }),
    [],
  );
  // What each operation needs, and who people sign in with: public, read once for the page.
  const requirements = useLoad(() => readRequirements(api), []);
  const people = useLoad(() => readSignInSettings(api), []);
  // A person's tokens are in the token worker, which a reload ends: the page signs in again at the issuer, whose session spares the password.
  const [tokensReady, setTokensReady] = useState(() => !session?.person || returning);
  useEffect(() => {
    if (tokensReady || !session?.person || !people.value) return;
    const { workspace } = session.person;
    void configureTokens(people.value)
      .then(async ({ signedIn }) => (signedIn ? setTokensReady(true) : location.assign(await startSignIn(workspace))))
      .catch((failure: unknown) => {
        setSignedOutBecause(failure instanceof Error ? failure.message : String(failure));
        change(undefined);
      });
  }, [tokensReady, session?.person, people.value]);
  const identity = sessionIdentity(session);
  const asked = useLoad(async () => (session && tokensReady && !caller ? api.data(api.client.GET('/dev/v1/me')) : undefined), [identity, tokensReady, caller]);
  const known = caller ?? asked.value;
  const can = useMemo(
    () => (known && requirements.value ? permissionsFor(known, requirements.value, session?.branch ?? '') : undefined),
    [known, requirements.value, session?.branch],
  );
  // Read again on each switch of branch, so that a protection set meanwhile holds on the branch a person moves to. A key that may not list
  // branches (an executor) gets none, and no page waits on them: the API still refuses a direct publish on a protected branch, saying why.
  const branches = useLoad(
    async () => (session && tokensReady ? api.data(api.client.GET('/dev/v1/branches')) : undefined),
    [identity, tokensReady, session?.branch],
  );
  const branchesRead = branches.value !== undefined || branches.error !== undefined;

  /** Signs out: a person at the issuer too (their refresh token revoked, then the issuer's sign-out page), a key here. */
  const signOut = async () => {
    if (!mayLeave()) return;
    const person = session?.person;
    change(undefined);
    if (!person) return;
    const { url } = await signOutPerson(consoleUrl()).catch(() => ({ url: undefined }));
    if (url) location.assign(url);
  };

  if (!session || place.view === 'signIn' || returning)
    return (
      <SignIn
        api={api}
        code={place.view === 'signIn' ? place.code : undefined}
        reason={signedOutBecause}
        people={people.value === undefined && !people.error ? undefined : (people.value ?? null)}
        onSignedIn={(next, signedIn) => {
          setSignedOutBecause(undefined);
          setCaller(signedIn);
          setTokensReady(true);
          setReturning(false);
          change(next);
          location.replace(hrefOf.rules);
        }}
      />
    );
  if (!tokensReady) return <p role="status">Signing you in again at your company's sign-in…</p>;

  const listed = branches.value ?? [];
  const onBranch = session.branch || known?.workspace.defaultBranch;
  const signedIn =
    known && can && branchesRead
      ? { api, session, caller: known, can, branches: listed, requiredApprovals: listed.find((b) => b.name === onBranch)?.requiredApprovals ?? 0 }
      : undefined;
  return (
    <ConsoleContext.Provider value={signedIn}>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Rules console</span>
        <nav aria-label="Sections">
          {sections
            .filter((section) => !section.opens || can?.(section.opens).allowed)
            .map((section) => (
              <a key={section.href} href={section.href} aria-current={section.active(place) ? 'page' : undefined}>
                {section.label}
              </a>
            ))}
        </nav>
        {signedIn && <BranchSwitcher branch={session.branch} onChange={(branch) => mayLeave() && change({ ...session, branch })} />}
        {session.person && (
          <span class="who" title={known?.owner}>
            {session.person.name}
          </span>
        )}
        <button type="button" class="quiet" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1} key={session.branch}>
        {signedIn ? <View place={place} /> : <Unready errors={[requirements.error, asked.error]} onRetry={() => (requirements.reload(), asked.reload())} />}
      </main>
    </ConsoleContext.Provider>
  );
}

/** The page before it knows what the key may do: waiting, or why it could not learn it, with a way to ask again. */
function Unready({ errors, onRetry }: { errors: unknown[]; onRetry(): void }) {
  const error = errors.find(Boolean);
  if (!error) return <p role="status">Loading what your key may do…</p>;
  return (
    <>
      <Failure error={error} title="Could not learn what your key may do" />
      <button type="button" onClick={onRetry}>
        Try again
      </button>
    </>
  );
}

render(<App />, document.getElementById('app')!);
