import type { ProjectStatus } from '@stratum/contracts'
import type { FastifyBaseLogger } from 'fastify'
import type { Db } from '../../store/db.js'
import type { InstanceProvider } from '../instance-provider.js'
import type { ProjectRow } from '../project-store.js'
import type { ProjectService } from '../projects.js'
import type { SecretBox } from '../secret-box.js'
import type { OperationLane, OperationRow } from './operation-store.js'

/**
 * What an operation is: a list of steps the runner (runner.ts) executes in order, recording each
 * one when it completes. This file holds only the shapes, so that the operations themselves
 * (definitions.ts, upgrade.ts, keys/rotation-job.ts...) and the runner depend on it, not on each other.
 */
export interface OperationContext {
  db: Db
  provider: InstanceProvider
  projects: ProjectService
  secrets: SecretBox
  dataDir: string
  log: FastifyBaseLogger
  /** GitHub's REST API (STRATUM_GITHUB_API_URL): a new branch reads its Git branch's migrations there. */
  githubApiUrl: string
}

export interface OperationStep {
  name: string
  /** Merged into the operation's params once the step completes (e.g. the upgrade's progress code). */
  marks?: Record<string, unknown>
  /** Merged into the params when the step fails (e.g. the upgrade's error code). */
  failureMarks?: Record<string, unknown>
  /** Must be idempotent: a resumed operation may run the step it was in when the platform died. */
  run(ctx: OperationContext, project: ProjectRow, op: OperationRow): Promise<void>
}

export interface OperationDefinition {
  /** Operations of one lane run one at a time per project (operation-store.ts). Default 'instance'. */
  lane?: OperationLane
  /**
   * The project statuses the operation shows: when accepted (before the runner takes it up), while
   * its steps run, and once it succeeded. Absent for operations that leave the status alone
   * (JWT secret rotation, logical backups).
   */
  requestedStatus?: ProjectStatus
  runningStatus?: ProjectStatus
  succeededStatus?: ProjectStatus
  steps: OperationStep[]
  /**
   * Puts things back after a failed step or a cancel; returns the project status to show (null:
   * leave the status alone). Must be idempotent: a platform killed while rolling back does it again.
   */
  rollBack(ctx: OperationContext, project: ProjectRow, op: OperationRow): Promise<ProjectStatus | null>
  /**
   * Cancel: every operation can be cancelled before its first step. Named here, its point of no
   * return: until this step starts, the operation can also be cancelled between steps.
   */
  cancellableUntil?: string
}

/** How many steps an operation whose last completed step is `lastStep` has done. */
export function stepsDone(definition: OperationDefinition, lastStep: string | null): number {
  return lastStep ? definition.steps.findIndex((step) => step.name === lastStep) + 1 : 0
}

/** Whether an operation that has done `done` steps may still be cancelled (between steps). */
export function cancellableAfter(definition: OperationDefinition, done: number): boolean {
  if (done === 0) return true
  if (!definition.cancellableUntil) return false
  return done <= definition.steps.findIndex((step) => step.name === definition.cancellableUntil)
}
