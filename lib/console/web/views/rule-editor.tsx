/** Placeholder until this view is built. */
export function RuleEditor({ id }: { id: string }) {
  return <p>Not built yet{' ' + id}.</p>;
}
