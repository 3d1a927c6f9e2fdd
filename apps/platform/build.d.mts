// Types of build.mjs, for the TypeScript that imports it (bench/platform-bundle.ts).
import type { BuildOptions } from 'esbuild'

export const PLATFORM_BUNDLE: string
export function platformBundleIsStale(): boolean
export function platformBundleOptions(entry: string, outdir: string): BuildOptions
export function buildPlatform(): Promise<void>
export function ensurePlatformBuilt(): Promise<void>
