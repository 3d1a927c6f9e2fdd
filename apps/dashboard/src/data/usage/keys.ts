export const usageKeys = {
  all: ['usage'] as const,
  resourceWarnings: () => [...usageKeys.all, 'resource-warnings'] as const,
  series: (ref: string, interval: string) => [...usageKeys.all, 'series', ref, interval] as const,
  disk: (ref: string) => [...usageKeys.all, 'disk', ref] as const,
  upgradeEligibility: (ref: string) => [...usageKeys.all, 'upgrade-eligibility', ref] as const,
}
