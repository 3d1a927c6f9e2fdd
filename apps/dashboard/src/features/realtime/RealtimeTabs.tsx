import { TabNav } from '../../components/ui/TabNav'

/** Realtime's two pages, as tabs under each page's title. */
export function RealtimeTabs({ projectRef }: { projectRef: string }) {
  return (
    <TabNav
      label="Realtime"
      tabs={[
        { label: 'Inspector', to: `/project/${projectRef}/realtime/inspector` },
        { label: 'Settings', to: `/project/${projectRef}/realtime/settings` },
      ]}
    />
  )
}
