/**
 * The console's places, in the URL's fragment (`#/rules/loan-eligibility`),
 * so every view has an address to reload or share and the static host needs
 * no rewrites. Nothing secret is ever put here. A page with unsaved edits
 * asks before it is left, whichever way: a link, the back button, another
 * address typed, a reload or the tab closed (`useLeaveWarning`).
 */
import { useEffect, useLayoutEffect, useState } from 'preact/hooks';

export type EntityType = 'rule' | 'workflow';

export type Place =
  | { view: 'signIn'; code?: string }
  | { view: 'list'; entityType: EntityType }
  | { view: 'rule'; id: string }
  | { view: 'workflow'; id: string }
  | { view: 'changeRequest'; entityType: EntityType; id: string; changeRequestId: string }
  | { view: 'authorization' }
  | { view: 'remote' }
  | { view: 'keys' }
  | { view: 'audit' };

/** The place under `#/rules/` or `#/workflows/`: the list, one rule or workflow, or one of its change requests. */
function entityPlace(entityType: EntityType, rest: string[]): Place {
  const [id, under, changeRequestId, ...beyond] = rest.map(decodeURIComponent);
  if (id && under === 'change-requests' && changeRequestId && beyond.length === 0) return { view: 'changeRequest', entityType, id, changeRequestId };
  if (id && under === undefined) return { view: entityType, id };
  return { view: 'list', entityType };
}

export function placeOf(hash: string): Place {
  const [first = '', ...rest] = hash.replace(/^#\/?/, '').split('/');
  const second = rest[0];
  switch (first) {
    case 'sign-in':
      return second ? { view: 'signIn', code: second } : { view: 'signIn' };
    case 'rules':
      return entityPlace('rule', rest);
    case 'workflows':
      return entityPlace('workflow', rest);
    case 'authorization':
      return { view: 'authorization' };
    case 'remote':
      return { view: 'remote' };
    case 'keys':
      return { view: 'keys' };
    case 'audit':
      return { view: 'audit' };
    default:
      return { view: 'list', entityType: 'rule' };
  }
}

export const hrefOf = {
  rules: '#/rules',
  rule: (id: string) => `#/rules/${encodeURIComponent(id)}`,
  workflows: '#/workflows',
  workflow: (id: string) => `#/workflows/${encodeURIComponent(id)}`,
  entity: (entityType: EntityType, id: string): string => (entityType === 'rule' ? hrefOf.rule(id) : hrefOf.workflow(id)),
  changeRequest: (entityType: EntityType, id: string, changeRequestId: string): string =>
    `${hrefOf.entity(entityType, id)}/change-requests/${encodeURIComponent(changeRequestId)}`,
  authorization: '#/authorization',
  remote: '#/remote',
  keys: '#/keys',
  audit: '#/audit',
};

/** What the page shown would lose if left (the question to ask), set by the page while it holds unsaved edits. */
let unsaved: string | undefined;
/** The next change of place was asked already, or decided by the page (a rule deleted takes its edits with it): it asks nothing. */
let leavingAsDecided = false;

/**
 * Asks before the page is left while `question` is set (the page holds
 * unsaved edits): a move within the console asks it (`mayLeave`), and
 * leaving the console (a reload, the tab closed) gets the browser's own
 * question, whose words the browser chooses.
 */
export function useLeaveWarning(question: string | undefined) {
  // Set as the page is drawn, not after: from the moment it shows unsaved changes, leaving asks.
  useLayoutEffect(() => {
    if (!question) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    unsaved = question;
    addEventListener('beforeunload', warn);
    return () => {
      if (unsaved === question) unsaved = undefined;
      removeEventListener('beforeunload', warn);
    };
  }, [question]);
}

/** Whether the page shown may be left: at once when it has nothing unsaved, else as the person answers. */
export function mayLeave(): boolean {
  return !unsaved || confirm(unsaved);
}

const samePlace = (hash: string, other: string) => JSON.stringify(placeOf(hash)) === JSON.stringify(placeOf(other));

/** Goes to `href` once the page shown may be left; `discarding` when the page decided to drop what it holds, so nothing is asked. */
export function navigate(href: string, { discarding = false } = {}) {
  if (new URL(href, location.href).hash === location.hash) return;
  if (!discarding && !samePlace(href, location.hash) && !mayLeave()) return;
  leavingAsDecided = true;
  location.hash = href;
}

/**
 * Asks before a link of the console is followed, so that staying adds no
 * entry to the history (a click with a modifier opens another tab: nothing
 * is lost, nothing asked).
 */
function askBeforeFollowing(event: MouseEvent) {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
  if (!(link instanceof HTMLAnchorElement) || link.target) return;
  const to = new URL(link.href);
  if (to.origin !== location.origin || to.pathname !== location.pathname || !to.hash.startsWith('#/') || samePlace(to.hash, location.hash)) return;
  if (mayLeave()) leavingAsDecided = true;
  else event.preventDefault();
}

export function usePlace(): Place {
  const [place, setPlace] = useState(() => placeOf(location.hash));
  useEffect(() => {
    // The address of the place shown, to go back to when the person stays on it.
    let shown = location.href;
    const update = () => {
      const decided = leavingAsDecided;
      leavingAsDecided = false;
      if (!decided && !samePlace(location.hash, new URL(shown).hash) && !mayLeave()) {
        // Moved already (the back button, an address typed): the address says again where the person is.
        history.replaceState(history.state, '', shown);
        return;
      }
      shown = location.href;
      setPlace(placeOf(location.hash));
    };
    addEventListener('hashchange', update);
    document.addEventListener('click', askBeforeFollowing);
    return () => {
      removeEventListener('hashchange', update);
      document.removeEventListener('click', askBeforeFollowing);
    };
  }, []);
  return place;
}
