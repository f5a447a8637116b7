/** The branch every view reads and writes: the workspace's branches, from the API, each protected one marked with the approvals a change needs there. */
import { approvalsOf } from '../changes/model.ts';
import { useConsole } from '../context.ts';

/** "protected · 2 approvals": how a protected branch is marked. */
const protectionLabel = (requiredApprovals: number) => `protected · ${approvalsOf(requiredApprovals)}`;

/** `onChange` answers whether the page moved to the branch: a page with unsaved edits may keep the person where they are. */
export function BranchSwitcher({ branch, onChange }: { branch: string; onChange(branch: string): boolean | void }) {
  const { branches, requiredApprovals } = useConsole();
  const names = branches.map((b) => b.name);
  if (branch && !names.includes(branch)) names.unshift(branch);
  const facts = (name: string) => {
    const listed = branches.find((b) => b.name === name);
    return [listed?.default && 'default', listed?.requiredApprovals && protectionLabel(listed.requiredApprovals)].filter(Boolean);
  };
  return (
    <span class="branch-area">
      <label class="branch">
        Branch
        <select
          value={branch}
          onChange={(e) => {
            // Stayed: the list shows the branch the page is on again (the value rendered did not change, so nothing else would reset it).
            if (onChange(e.currentTarget.value) === false) e.currentTarget.value = branch;
          }}
          disabled={names.length === 0}
        >
          {names.map((name) => (
            <option key={name} value={name}>
              {name}
              {facts(name).length > 0 && ` (${facts(name).join(', ')})`}
            </option>
          ))}
        </select>
      </label>
      {requiredApprovals > 0 && <span class="badge protected">{protectionLabel(requiredApprovals)}</span>}
    </span>
  );
}
