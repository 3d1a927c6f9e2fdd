export const lifecycleKeys = {
  all: ['lifecycle'] as const,
  pauseStatus: (ref: string) => [...lifecycleKeys.all, 'pause-status', ref] as const,
  restoreVersions: (ref: string) => [...lifecycleKeys.all, 'restore-versions', ref] as const,
  upgradeStatus: (ref: string, trackingId?: string | null) =>
    [...lifecycleKeys.all, 'upgrade-status', ref, trackingId ?? 'latest'] as const,
  operations: (ref: string) => [...lifecycleKeys.all, 'operations', ref] as const,
  freeProjectLimit: (slug: string) => [...lifecycleKeys.all, 'free-project-limit', slug] as const,
}
