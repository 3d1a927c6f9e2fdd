/** Project statuses: exactly the specs' and the Management API's. */
export const PROJECT_STATUSES = [
  'ACTIVE_HEALTHY',
  'ACTIVE_UNHEALTHY',
  'COMING_UP',
  'UNKNOWN',
  'INACTIVE',
  'GOING_DOWN',
  'PAUSING',
  'PAUSE_FAILED',
  'RESTARTING',
  'RESIZING',
  'UPGRADING',
  'RESTORING',
  'RESTORE_FAILED',
  'INIT_FAILED',
  'REMOVED',
] as const
export type ProjectStatus = (typeof PROJECT_STATUSES)[number]

export const POSTGRES_MAJORS = ['15', '17'] as const
export type PostgresMajor = (typeof POSTGRES_MAJORS)[number]
export const DEFAULT_POSTGRES_MAJOR: PostgresMajor = '17'

/** Compute sizes with the real settings applied to the instance (restart needed on change). */
export const COMPUTE_SIZES = {
  micro: { label: 'Micro', max_connections: 60, shared_buffers: '64MB', work_mem: '2MB' },
  small: { label: 'Small', max_connections: 90, shared_buffers: '128MB', work_mem: '4MB' },
  medium: { label: 'Medium', max_connections: 120, shared_buffers: '256MB', work_mem: '8MB' },
  large: { label: 'Large', max_connections: 160, shared_buffers: '512MB', work_mem: '16MB' },
} as const
export type ComputeSize = keyof typeof COMPUTE_SIZES
export const COMPUTE_SIZE_NAMES = Object.keys(COMPUTE_SIZES) as ComputeSize[]
export const DEFAULT_COMPUTE_SIZE: ComputeSize = 'micro'
