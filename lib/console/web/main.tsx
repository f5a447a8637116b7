/**
 * The console: a page for the people who write rules, over the same public
 * API consumers call. It signs in with a Service-API-Key, keeps it for the
 * tab's session only, and shows the rules, workflows, credentials and remote
 * of that key's workspace on the chosen branch.
 */
import './styles.css';
import { render } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import { createApi } from './api.ts';
import { ConsoleContext } from './context.ts';
import { hrefOf, usePlace, type Place } from './route.ts';
import { loadSession, saveSession, type Session } from './session.ts';
import { BranchSwitcher } from './views/branch-switcher.tsx';
import { AuthorizationView } from './views/authorization.tsx';
import { EntityList } from './views/entity-list.tsx';
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
    case 'authorization':
      return <AuthorizationView />;
    case 'remote':
      return <RemoteView />;
    case 'list':
      return <EntityList entityType={place.entityType} />;
    default:
      return <EntityList entityType="rule" />;
  }
}

const sections = [
  { href: hrefOf.rules, label: 'Rules', active: (p: Place) => p.view === 'rule' || (p.view === 'list' && p.entityType === 'rule') },
  { href: hrefOf.workflows, label: 'Workflows', active: (p: Place) => p.view === 'workflow' || (p.view === 'list' && p.entityType === 'workflow') },
  { href: hrefOf.authorization, label: 'Authorization', active: (p: Place) => p.view === 'authorization' },
  { href: hrefOf.remote, label: 'Remote', active: (p: Place) => p.view === 'remote' },
];

function App() {
  const [session, setSession] = useState(loadSession);
  const [signedOutBecause, setSignedOutBecause] = useState<string>();
  const place = usePlace();
  const change = (next: Session | undefined) => {
    saveSession(next);
    setSession(next);
  };
  const api = useMemo(
    () =>
      createApi(loadSession, (failure) => {
        setSignedOutBecause(failure.message);
        change(undefined);
      }),
    [],
  );

  if (!session || place.view === 'signIn')
    return (
      <SignIn
        api={api}
        code={place.view === 'signIn' ? place.code : undefined}
        reason={signedOutBecause}
        onSignedIn={(next) => {
          setSignedOutBecause(undefined);
          change(next);
          location.replace(hrefOf.rules);
        }}
      />
    );

  return (
    <ConsoleContext.Provider value={{ api, session }}>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Rules console</span>
        <nav aria-label="Sections">
          {sections.map((section) => (
            <a key={section.href} href={section.href} aria-current={section.active(place) ? 'page' : undefined}>
              {section.label}
            </a>
          ))}
        </nav>
        <BranchSwitcher branch={session.branch} onChange={(branch) => change({ ...session, branch })} />
        <button type="button" class="quiet" onClick={() => change(undefined)}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1} key={session.branch}>
        <View place={place} />
      </main>
    </ConsoleContext.Provider>
  );
}

render(<App />, document.getElementById('app')!);
