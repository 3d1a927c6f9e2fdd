import { ProjectFeaturePlaceholder } from '../coming-later/ProjectFeaturePlaceholder'

/** The SQL editor page: replaced by the editor itself (issue 3). */
export function SqlEditorPage() {
  return <ProjectFeaturePlaceholder feature="sql" />
}
