/** Placeholder until this view is built. */
export function WorkflowEditor({ id }: { id: string }) {
  return <p>Not built yet{' ' + id}.</p>;
}
