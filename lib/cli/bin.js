#!/usr/bin/env node
// The `rules` command: runs the TypeScript CLI through tsx's loader, so no build step is needed.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./main.ts');
await main();
