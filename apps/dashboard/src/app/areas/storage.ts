// Loaded on demand: storage buckets.
export { StoragePage } from '../../features/storage/StoragePage'
export { BucketExplorerPage } from '../../features/storage/BucketExplorerPage'
