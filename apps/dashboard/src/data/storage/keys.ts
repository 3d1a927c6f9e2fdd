export const storageKeys = {
  all: ['storage'] as const,
  project: (ref: string) => [...storageKeys.all, ref] as const,
  buckets: (ref: string) => [...storageKeys.project(ref), 'buckets'] as const,
  bucketObjects: (ref: string, bucket: string) => [...storageKeys.project(ref), 'objects', bucket] as const,
  objects: (ref: string, bucket: string, prefix: string) => [...storageKeys.bucketObjects(ref, bucket), prefix] as const,
}
