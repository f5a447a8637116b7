/**
 * The console's places, in the URL's fragment (`#/rules/loan-eligibility`),
 * so every view has an address to reload or share and the static host needs
 * no rewrites. Nothing secret is ever put here.
 */
import { useEffect, useState } from 'preact/hooks';

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

export function navigate(href: string) {
  location.hash = href;
}

export function usePlace(): Place {
  const [place, setPlace] = useState(() => placeOf(location.hash));
  useEffect(() => {
    const update = () => setPlace(placeOf(location.hash));
    addEventListener('hashchange', update);
    return () => removeEventListener('hashchange', update);
  }, []);
  return place;
}
