import type { Branch } from '@stratum/contracts'
import { ArrowDownToLine, Ellipsis, ExternalLink, FileDiff, GitMerge, RotateCcw, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { Link } from 'react-router'
import { Badge } from '../../../components/ui/Badge'
import { DropdownMenuItem, DropdownMenuSeparator, LazyDropdownMenu } from '../../../components/ui/DropdownMenu'
import { useToast } from '../../../components/ui/Toast'
import { errorMessage } from '../../../data/api'
import { useDeleteBranch, useMergeBranch, usePushBranch, useResetBranch } from '../../../data/branches/useBranchActions'
import { UtcTime } from '../UtcTime'
import { BranchDiffDialog, DeleteBranchDialog, MergeBranchDialog, ResetBranchDialog } from './BranchDialogs'
import { BranchStatus } from './BranchStatus'

type OpenDialog = 'reset' | 'merge' | 'delete' | 'diff' | null

interface PreviewBranchRowProps {
  branch: Branch
  /** The production branch's name (the parent of every preview branch). */
  parentName: string
  /** Members without infrastructure.execute see the branch but cannot change it. */
  canManage: boolean
}

/** One preview branch: where it comes from, its state, and what can be done with it. */
export function PreviewBranchRow({ branch, parentName, canManage }: PreviewBranchRowProps) {
  const toast = useToast()
  const [dialog, setDialog] = useState<OpenDialog>(null)
  const reset = useResetBranch()
  const merge = useMergeBranch()
  const remove = useDeleteBranch()
  const push = usePushBranch()
  const variables = { branchId: branch.id, projectRef: branch.parent_project_ref }
  const close = (open: boolean) => (open ? undefined : setDialog(null))
  const busyCreating = branch.status === 'CREATING_PROJECT'

  const run = (mutation: typeof reset, success: string, failure: string) =>
    mutation.mutate(variables, {
      onSuccess: () => {
        toast.success(success)
        setDialog(null)
      },
      onError: (error) => toast.error(`${failure}: ${errorMessage(error)}`),
    })

  return (
    <tr data-testid="preview-branch" data-branch={branch.name}>
      <td>
        <div className="stack-sm branch-name-cell">
          <span className="branch-name">{branch.name}</span>
          <span className="row-wrap">
            <Badge tone={branch.with_data ? 'info' : 'neutral'}>{branch.with_data ? 'With data' : 'Schema only'}</Badge>
            {branch.recovery_time_target ? <Badge tone="neutral" title={branch.recovery_time_target}>From a point in time</Badge> : null}
          </span>
        </div>
      </td>
      <td className="nowrap">{parentName}</td>
      <td className="nowrap mono">{branch.git_branch ?? <span className="faint">—</span>}</td>
      <td>
        <BranchStatus branch={branch} />
      </td>
      <td className="nowrap">
        <UtcTime iso={branch.created_at} />
      </td>
      <td className="table-actions">
        <div className="row">
          <Link className="btn btn-secondary btn-sm" to={`/project/${branch.project_ref}`} aria-label={`Open ${branch.name}`}>
            <ExternalLink size={14} aria-hidden="true" />
            Open
          </Link>
          <LazyDropdownMenu className="btn btn-ghost btn-sm btn-icon" label={`Actions for ${branch.name}`} icon={<Ellipsis size={14} aria-hidden="true" />}>
            {() => (
              <>
                <DropdownMenuItem icon={<FileDiff size={14} />} onSelect={() => setDialog('diff')} disabled={busyCreating}>
                  Show diff
                </DropdownMenuItem>
                <DropdownMenuItem icon={<GitMerge size={14} />} onSelect={() => setDialog('merge')} disabled={!canManage || busyCreating}>
                  Merge into production
                </DropdownMenuItem>
                <DropdownMenuItem
                  icon={<ArrowDownToLine size={14} />}
                  onSelect={() => run(push, `Applied production's new migrations to ${branch.name}`, 'Failed to update branch')}
                  disabled={!canManage || busyCreating || push.isPending}
                >
                  Update from production
                </DropdownMenuItem>
                <DropdownMenuItem icon={<RotateCcw size={14} />} onSelect={() => setDialog('reset')} disabled={!canManage || busyCreating}>
                  Reset branch
                </DropdownMenuItem>
                <DropdownMenuSeparator />
                <DropdownMenuItem icon={<Trash2 size={14} />} onSelect={() => setDialog('delete')} disabled={!canManage}>
                  Delete branch
                </DropdownMenuItem>
              </>
            )}
          </LazyDropdownMenu>
        </div>
        <ResetBranchDialog
          branch={branch}
          parentName={parentName}
          open={dialog === 'reset'}
          onOpenChange={close}
          busy={reset.isPending}
          onConfirm={() => run(reset, `Branch ${branch.name} is being reset`, 'Failed to reset branch')}
        />
        <MergeBranchDialog
          branch={branch}
          parentName={parentName}
          open={dialog === 'merge'}
          onOpenChange={close}
          busy={merge.isPending}
          onConfirm={() => run(merge, `Merged ${branch.name} into ${parentName}`, 'Failed to merge branch')}
        />
        <DeleteBranchDialog
          branch={branch}
          open={dialog === 'delete'}
          onOpenChange={close}
          busy={remove.isPending}
          onConfirm={() => run(remove, `Deleted branch ${branch.name}`, 'Failed to delete branch')}
        />
        <BranchDiffDialog branch={branch} open={dialog === 'diff'} onOpenChange={close} />
      </td>
    </tr>
  )
}
