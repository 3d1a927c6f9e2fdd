/**
 * Dashboard feature flags. Each has a default for this installation (Stratum is always self-hosted), and can be
 * turned on or off per browser: a query parameter on the page's address (`?branchingWithoutGit=false`) wins,
 * else the localStorage key `stratum.flags.<name>` ('true' or 'false'), else the default.
 */
const FLAG_DEFAULTS = {
  /** Branching may be enabled without a connected GitHub repository (a self-hosted platform has no GitHub App). */
  branchingWithoutGit: true,
} as const

export type FeatureFlag = keyof typeof FLAG_DEFAULTS

export const flagStorageKey = (flag: FeatureFlag) => `stratum.flags.${flag}`

function parseFlag(value: string | null | undefined): boolean | undefined {
  if (value == null) return undefined
  const normalized = value.trim().toLowerCase()
  if (['true', '1', 'on', 'yes'].includes(normalized)) return true
  if (['false', '0', 'off', 'no'].includes(normalized)) return false
  return undefined
}

function storedFlag(flag: FeatureFlag): string | null {
  try {
    return window.localStorage.getItem(flagStorageKey(flag))
  } catch {
    // storage blocked (private mode, sandboxed frame): the default applies
    return null
  }
}

/** The flag's value for this page load: read once per call, cheap enough to call while rendering. */
export function featureFlag(flag: FeatureFlag, search: string = window.location.search): boolean {
  const params = new URLSearchParams(search)
  return parseFlag(params.get(flag)) ?? parseFlag(storedFlag(flag)) ?? FLAG_DEFAULTS[flag]
}
