import { RevisionConflict } from '../revision-retry.ts';

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

export const isConditionFailure = (error: unknown): boolean => error instanceof Error && error.name === 'ConditionalCheckFailedException';

/** The condition that the item is at `expectedRevision` (0: absent). */
export const atRevision = (expectedRevision: number) =>
  expectedRevision === 0
    ? { ConditionExpression: 'attribute_not_exists(PK)' }
    : { ConditionExpression: 'revision = :expected', ExpressionAttributeValues: { ':expected': expectedRevision } };

/** Runs a write made `atRevision`: RevisionConflict naming `what` (as people name it) when its condition did not hold. */
export async function atRevisionOrConflict(what: string, write: Promise<unknown>) {
  try {
    await write;
  } catch (error) {
    if (isConditionFailure(error)) throw new RevisionConflict(what);
    throw error;
  }
}

/** Runs a conditional write: its result, or undefined when its condition did not hold. Other errors pass. */
export async function unlessConditionFails<T>(write: Promise<T>): Promise<T | undefined> {
  try {
    return await write;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}
