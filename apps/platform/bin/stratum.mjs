#!/usr/bin/env node
// The platform runs as compiled JavaScript (dist/cli.js), bundled from its sources on first start and again
// whenever they change (see ../build.mjs). Stack traces point into the TypeScript sources through the source map.
import { ensurePlatformBuilt, PLATFORM_BUNDLE } from '../build.mjs'
import { pathToFileURL } from 'node:url'

await ensurePlatformBuilt()
process.setSourceMapsEnabled(true)
await import(pathToFileURL(PLATFORM_BUNDLE).href)
