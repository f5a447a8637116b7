/**
 * Who is signed in: the API key and the branch, kept in sessionStorage, which
 * the browser clears when the tab's session ends. The key is never put in a
 * URL, a cookie or localStorage.
 */
export interface Session {
  apiKey: string;
  branch: string;
}

const storageKey = 'rules-console.session';

export function loadSession(): Session | undefined {
  try {
    const saved = JSON.parse(sessionStorage.getItem(storageKey) ?? 'null') as Partial<Session> | null;
    return saved && typeof saved.apiKey === 'string' && saved.apiKey
      ? { apiKey: saved.apiKey, branch: typeof saved.branch === 'string' ? saved.branch : '' }
      : undefined;
  } catch {
    return undefined;
  }
}

export function saveSession(session: Session | undefined) {
  if (session) sessionStorage.setItem(storageKey, JSON.stringify(session));
  else sessionStorage.removeItem(storageKey);
}
