import { BRANCH_NAME_EMPTY, BRANCH_NAME_INVALID, GIT_BRANCH_REQUIRED } from '@stratum/contracts'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { MemoryRouter } from 'react-router'
import { describe, expect, it } from 'vitest'
import { EnableBranchingFields, type EnableBranchingFieldsProps } from '../src/features/branching/enable/EnableBranchingFields'
import { fromUtcInputValue, pointInTimeError, toUtcInputValue, windowBounds } from '../src/features/branching/pointInTime'
import type { ValidatedField } from '../src/features/branching/useValidatedField'
import { branchNameError, gitBranchError, gitBranchNotFound, postgresMajor, versionTooOld } from '../src/features/branching/validation'
import { featureFlag } from '../src/lib/featureFlags'

const field = (value: string): ValidatedField => ({ value, setValue: () => undefined, valid: true, error: undefined, onBlur: () => undefined, check: () => true })

function render(overrides: Partial<EnableBranchingFieldsProps>): string {
  const props: EnableBranchingFieldsProps = {
    projectRef: 'abcdefghijabcdefghij',
    orgSlug: 'acme',
    freePlan: false,
    postgresMajor: 17,
    branchName: field('main'),
    gitBranch: field(''),
    checkState: 'idle',
    connection: undefined,
    connectionsLoading: false,
    connectionsFailed: false,
    withoutGit: true,
    hasPitr: true,
    ...overrides,
  }
  return renderToStaticMarkup(createElement(MemoryRouter, null, createElement(EnableBranchingFields, props)))
}

describe('the enable-branching rules', () => {
  it('checks the production branch name with the texts of the spec', () => {
    expect(branchNameError('')).toBe(BRANCH_NAME_EMPTY)
    expect(branchNameError('   ')).toBe(BRANCH_NAME_EMPTY)
    expect(branchNameError('feature/x')).toBe(BRANCH_NAME_INVALID)
    expect(branchNameError('my branch')).toBe(BRANCH_NAME_INVALID)
    expect(branchNameError('main')).toBeUndefined()
    expect(branchNameError('Prod_2-b')).toBeUndefined()
  })

  it('requires the Git branch only when a repository is connected', () => {
    expect(gitBranchError('', true)).toBe(GIT_BRANCH_REQUIRED)
    expect(gitBranchError('', false)).toBeUndefined()
    expect(gitBranchError('main', true)).toBeUndefined()
    expect(gitBranchNotFound('nope', 'acme/shop')).toBe('Unable to find branch "nope" in acme/shop')
  })

  it('reads the Postgres major and refuses versions below 15', () => {
    expect(postgresMajor({ postgres_engine: '17', dbVersion: '17.10' })).toBe(17)
    expect(postgresMajor({ dbVersion: '14.12' })).toBe(14)
    expect(versionTooOld(14)).toBe(true)
    expect(versionTooOld(15)).toBe(false)
    expect(versionTooOld(undefined)).toBe(false)
  })

  it('takes the branching-without-git flag from the query, then the default (on for a self-hosted platform)', () => {
    expect(featureFlag('branchingWithoutGit', '?branchingWithoutGit=false')).toBe(false)
    expect(featureFlag('branchingWithoutGit', '?branchingWithoutGit=off')).toBe(false)
    expect(featureFlag('branchingWithoutGit', '?branchingWithoutGit=true')).toBe(true)
    expect(featureFlag('branchingWithoutGit', '')).toBe(true)
  })
})

describe('the enable-branching dialog body', () => {
  it('shows a notice instead of the form below Postgres 15 (no real project can run 14 here)', () => {
    const html = render({ postgresMajor: 14 })
    expect(html).toContain('Branching needs Postgres 15 or later')
    expect(html).toContain('This project runs Postgres 14')
    expect(html).not.toContain('Production Branch Name')
    expect(html).not.toContain('GitHub Repository')
  })

  it('shows the form from Postgres 15, with the notes and the default name', () => {
    const html = render({ postgresMajor: 15, hasPitr: false })
    expect(html).toContain('Production Branch Name')
    expect(html).toContain('value="main"')
    expect(html).toContain('$0.01344 per hour')
    expect(html).toContain('/project/abcdefghijabcdefghij/settings/addons?panel=pitr')
  })

  it('prompts the free plan to upgrade', () => {
    const html = render({ freePlan: true })
    expect(html).toContain('/org/acme/billing?panel=subscriptionPlan&amp;source=enableBranchingButton')
  })

  it('marks the repository Required only when the flag is off', () => {
    expect(render({ withoutGit: false })).toContain('Required')
    expect(render({ withoutGit: true })).not.toContain('>Required<')
    expect(render({ connectionsFailed: true })).toContain('Failed to retrieve connections')
  })
})

describe('the point-in-time field', () => {
  it('reads and writes UTC, and keeps the moment inside the window', () => {
    const unix = Date.UTC(2026, 10, 25, 19, 4, 5) / 1000
    expect(toUtcInputValue(unix)).toBe('2026-11-25T19:04:05')
    expect(fromUtcInputValue('2026-11-25T19:04:05')).toBe(unix)
    expect(fromUtcInputValue('2026-11-25T19:04')).toBe(unix - 5)
    const bounds = windowBounds({ earliestPhysicalBackupDateUnix: unix - 60, latestPhysicalBackupDateUnix: unix })
    expect(pointInTimeError(toUtcInputValue(unix - 30), bounds)).toBeUndefined()
    expect(pointInTimeError(toUtcInputValue(unix + 30), bounds)).toBe('Choose a moment inside the recoverable window')
    expect(windowBounds({})).toBeUndefined()
  })
})
