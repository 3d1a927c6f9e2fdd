#!/usr/bin/env node
// The platform runs from its TypeScript sources through tsx's loader: no separate build step.
import { register } from 'tsx/esm/api'

register()
await import('../src/cli.ts')
