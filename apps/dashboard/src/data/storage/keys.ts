export const storageKeys = {
  all: ['storage'] as const,
  project: (ref: string) => [...storageKeys.all, ref] as const,
  buckets: (ref: string) => [...storageKeys.project(ref), 'buckets'] as const,
}
