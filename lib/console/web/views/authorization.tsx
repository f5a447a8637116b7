/** Placeholder until this view is built. */
export function AuthorizationView() {
  return <p>Not built yet.</p>;
}
