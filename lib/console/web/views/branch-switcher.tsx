/** The branch every view reads and writes: the workspace's branches, from the API. */
import { useConsole } from '../context.ts';
import { useLoad } from '../ui/use-load.ts';

export function BranchSwitcher({ branch, onChange }: { branch: string; onChange(branch: string): void }) {
  const { api } = useConsole();
  const branches = useLoad(() => api.data(api.client.GET('/dev/v1/branches')), []);
  const names = branches.value?.map((b) => b.name) ?? [];
  if (branch && !names.includes(branch)) names.unshift(branch);
  return (
    <label class="branch">
      Branch
      <select value={branch} onChange={(e) => onChange(e.currentTarget.value)} disabled={names.length === 0}>
        {names.map((name) => (
          <option key={name} value={name}>
            {name}
            {branches.value?.find((b) => b.name === name)?.default ? ' (default)' : ''}
          </option>
        ))}
      </select>
    </label>
  );
}
