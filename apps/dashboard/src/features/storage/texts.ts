/** Texts of the SQL editor spec's error catalogue (storage archive) and the page's own. */
export const STORAGE_TEXTS = {
  archiveFailed: 'Failed to create storage archive',
  archivePreparing: 'Preparing the storage archive',
  archivePreparingBody: 'This can take a while for large buckets. The download starts by itself when the archive is ready.',
  archiveReady: 'Storage archive ready: the download has started',
  writePermission: 'You need additional permissions to manage buckets',
  objectWritePermission: 'You need additional permissions to change files',
  /** How long a copied URL of a private file works. */
  signedUrlSeconds: 3600,
} as const

export const SIZE_UNITS = [
  { label: 'bytes', factor: 1 },
  { label: 'KB', factor: 1024 },
  { label: 'MB', factor: 1024 ** 2 },
  { label: 'GB', factor: 1024 ** 3 },
] as const
export type SizeUnit = (typeof SIZE_UNITS)[number]['label']

/** The largest unit that divides the limit exactly: 5242880 -> {5, 'MB'}. */
export function splitSize(bytes: number): { value: string; unit: SizeUnit } {
  const unit = [...SIZE_UNITS].reverse().find((u) => bytes >= u.factor && bytes % u.factor === 0) ?? SIZE_UNITS[0]
  return { value: String(bytes / unit.factor), unit: unit.label }
}
