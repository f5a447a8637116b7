/** The branches of a workspace as the API lists them: the default one first, then by name. */
import type { Store, Workspace } from '../store/index.ts';

export interface BranchView {
  name: string;
  default: boolean;
  createdAt: string;
  /** On a protected branch: how many approvals a change request needs before it is published. */
  requiredApprovals: number;
}

/** The workspace's branches, the default first; a key limited to some branches (`limitedTo`) sees only those. */
export async function listBranches(store: Pick<Store, 'listBranches'>, workspace: Workspace, limitedTo?: readonly string[]): Promise<BranchView[]> {
  const branches = await store.listBranches(workspace.id);
  return branches
    .filter((branch) => !limitedTo || limitedTo.includes(branch.name))
    .map((branch) => ({
      name: branch.name,
      default: branch.name === workspace.defaultBranch,
      createdAt: branch.createdAt,
      requiredApprovals: branch.protection?.requiredApprovals ?? 0,
    }))
    .sort((a, b) => Number(b.default) - Number(a.default) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
