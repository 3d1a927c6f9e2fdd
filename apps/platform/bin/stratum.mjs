#!/usr/bin/env node
// The platform runs as compiled JavaScript (dist/cli.js), bundled from its sources on first start and again
// whenever they change (see ../build.mjs). Stack traces point into the TypeScript sources through the source map.
import module from 'node:module'
import { pathToFileURL } from 'node:url'
import { ensurePlatformBuilt, PLATFORM_BUNDLE } from '../build.mjs'

await ensurePlatformBuilt()
// Only the platform's own maps where Node can tell them apart (22.14 and later): those of node_modules are read at
// import and parsed at the first error through them (ai's is 1.1 MB, 23 ms), 11-15 MB of RSS at idle on Node 24.
if (module.setSourceMapsSupport) module.setSourceMapsSupport(true, { nodeModules: false })
else process.setSourceMapsEnabled(true)
await import(pathToFileURL(PLATFORM_BUNDLE).href)
