/** Builds `SET #a0 = :a0, ...` for every defined field, with name and value placeholders. */
export function setAll(fields: Record<string, unknown>) {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const assignments: string[] = [];
  Object.entries(fields).forEach(([field, value], i) => {
    if (value === undefined) return;
    names[`#a${i}`] = field;
    values[`:a${i}`] = value;
    assignments.push(`#a${i} = :a${i}`);
  });
  return { expression: `SET ${assignments.join(', ')}`, names, values };
}

export const isConditionFailure = (error: unknown): boolean =>
  error instanceof Error && error.name === 'ConditionalCheckFailedException';

/** Runs a conditional write: its result, or undefined when its condition did not hold. Other errors pass. */
export async function unlessConditionFails<T>(write: Promise<T>): Promise<T | undefined> {
  try {
    return await write;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}
