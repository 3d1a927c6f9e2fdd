import type { ProjectResourceWarnings } from '@stratum/contracts'
import { describe, expect, it } from 'vitest'
import { alertOf, bannerVisible } from '../src/features/resource-warnings/messages'

const record = (fields: Partial<ProjectResourceWarnings> = {}): ProjectResourceWarnings => ({
  project: 'abcdefghijabcdefghij',
  is_readonly_mode_enabled: false,
  cpu_exhaustion: null,
  disk_io_exhaustion: null,
  disk_space_exhaustion: null,
  memory_and_swap_exhaustion: null,
  auth_email_offender: null,
  auth_rate_limit_exhaustion: null,
  auth_restricted_email_sending: null,
  need_pitr: null,
  ...fields,
})

describe('the resource warning banner', () => {
  it('chooses read-only first, then one metric, or multiple resources at the worst level', () => {
    expect(alertOf(undefined)).toBeNull()
    expect(alertOf(record())).toBeNull()
    expect(alertOf(record({ disk_space_exhaustion: 'warning' }))).toEqual({ kind: 'disk_space', level: 'warning' })
    expect(alertOf(record({ cpu_exhaustion: 'critical' }))).toEqual({ kind: 'cpu', level: 'critical' })
    expect(alertOf(record({ cpu_exhaustion: 'warning', memory_and_swap_exhaustion: 'critical' }))).toEqual({ kind: 'multiple_resources', level: 'critical' })
    expect(alertOf(record({ is_readonly_mode_enabled: true, disk_space_exhaustion: 'critical', cpu_exhaustion: 'warning' }))).toEqual({ kind: 'readonly', level: 'critical' })
  })

  it('follows the visibility rules of the spec', () => {
    const disk = alertOf(record({ disk_space_exhaustion: 'warning' }))
    const readonly = alertOf(record({ is_readonly_mode_enabled: true }))
    const email = alertOf(record({ auth_rate_limit_exhaustion: 'critical' }))
    expect(bannerVisible(null, '')).toBe(false)
    expect(bannerVisible(disk, '')).toBe(true)
    expect(bannerVisible(disk, '/settings/compute-and-disk')).toBe(true)
    // Usage and infrastructure pages: hidden unless read-only.
    for (const route of ['/infrastructure', '/settings/infrastructure', '/usage']) {
      expect(bannerVisible(disk, route)).toBe(false)
      expect(bannerVisible(readonly, route)).toBe(true)
    }
    // Compute and disk: hidden when read-only.
    expect(bannerVisible(readonly, '/settings/compute-and-disk')).toBe(false)
    expect(bannerVisible(readonly, '/sql')).toBe(true)
    // Restricted to other routes: the auth email rate limit shows on auth pages only.
    expect(bannerVisible(email, '/sql')).toBe(false)
    expect(bannerVisible(email, '/auth/users')).toBe(true)
    expect(bannerVisible(disk, '/infrastructure-x')).toBe(true)
  })
})
