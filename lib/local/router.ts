import type { HttpMethod, Route } from '../http/route.ts';

export type Match = { route: Route; pathParameters: Record<string, string> } | { allowed: HttpMethod[] } | undefined;

interface ResourceNode {
  statics: Map<string, ResourceNode>;
  variable?: { name: string; node: ResourceNode };
  methods: Map<string, Route>;
}

const newNode = (): ResourceNode => ({ statics: new Map(), methods: new Map() });

/**
 * Matches paths as API Gateway's resource tree does: at each segment a static
 * child wins over a `{variable}` one, with no backtracking, so the local
 * runtime finds exactly the method (or the 404 or 405) that AWS would.
 */
export function createRouter(routes: readonly Route[]) {
  const root = newNode();
  for (const route of routes) {
    let node = root;
    for (const segment of route.path.split('/').filter(Boolean)) {
      const variable = /^\{(.+)\}$/.exec(segment)?.[1];
      if (variable) {
        node.variable ??= { name: variable, node: newNode() };
        node = node.variable.node;
      } else {
        if (!node.statics.has(segment)) node.statics.set(segment, newNode());
        node = node.statics.get(segment)!;
      }
    }
    node.methods.set(route.method, route);
  }

  return (method: string, path: string): Match => {
    let node = root;
    const pathParameters: Record<string, string> = {};
    for (const raw of path.split('/').filter(Boolean)) {
      let segment: string;
      try {
        segment = decodeURIComponent(raw);
      } catch {
        return undefined;
      }
      const next = node.statics.get(segment);
      if (next) node = next;
      else if (node.variable) {
        pathParameters[node.variable.name] = segment;
        node = node.variable.node;
      } else return undefined;
    }
    if (node.methods.size === 0) return undefined;
    const route = node.methods.get(method);
    return route ? { route, pathParameters } : { allowed: [...node.methods.keys()] as HttpMethod[] };
  };
}
