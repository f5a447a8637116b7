/**
 * The console's places, in the URL's fragment (`#/rules/loan-eligibility`),
 * so every view has an address to reload or share and the static host needs
 * no rewrites. Nothing secret is ever put here.
 */
import { useEffect, useState } from 'preact/hooks';

export type Place =
  | { view: 'signIn'; code?: string }
  | { view: 'list'; entityType: 'rule' | 'workflow' }
  | { view: 'rule'; id: string }
  | { view: 'workflow'; id: string }
  | { view: 'authorization' }
  | { view: 'remote' }
  | { view: 'keys' }
  | { view: 'audit' };

export function placeOf(hash: string): Place {
  const [first = '', second, ...rest] = hash.replace(/^#\/?/, '').split('/');
  const id = second && rest.length === 0 ? decodeURIComponent(second) : undefined;
  switch (first) {
    case 'sign-in':
      return second ? { view: 'signIn', code: second } : { view: 'signIn' };
    case 'rules':
      return id ? { view: 'rule', id } : { view: 'list', entityType: 'rule' };
    case 'workflows':
      return id ? { view: 'workflow', id } : { view: 'list', entityType: 'workflow' };
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
