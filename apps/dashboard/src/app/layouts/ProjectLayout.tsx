import { X } from 'lucide-react'
import { useRef, useState } from 'react'
import { Outlet, useLocation } from 'react-router'
import { Group, Panel, Separator, usePanelRef } from 'react-resizable-panels'
import { IconButton } from '../../components/ui/Button'
import { DialogPrimitive } from '../../components/ui/Dialog'
import { useProjectStatusWatcher } from '../../data/projects/useProjectStatus'
import { useCurrentProject } from '../../data/projects/useCurrentProject'
import { ProjectStatusGate } from '../../features/project-status/ProjectStatusGate'
import { ResourceWarningBanner } from '../../features/resource-warnings'
import { ProductMenu } from '../../features/shell/ProductMenu'
import { ProjectTopBar } from '../../features/shell/ProjectTopBar'
import { SidePanel } from '../../features/shell/SidePanel'
import { useMenuWidth } from '../../features/shell/useMenuWidth'
import { useRightPanel } from '../../features/shell/useRightPanel'
import '../../features/shell/shell.css'
import { useIsSmallScreen } from '../../lib/useMediaQuery'
import { usePageScroll } from '../../lib/usePageScroll'
import { ProjectLoadGate } from './ProjectLoadGate'

/**
 * The shell of every /project/{ref}/* page: top bar, resizable product menu, main panel and
 * a right panel holding either the assistant or the editor panel. Below 768 px the menu
 * becomes an overlay opened from the top bar and the right panel covers the main panel.
 */
export function ProjectLayout() {
  const { ref, project, organization, query } = useCurrentProject()
  const small = useIsSmallScreen()
  const { panel, toggle, close } = useRightPanel()
  const [menuOpen, setMenuOpen] = useState(false)
  useProjectStatusWatcher(ref, query)
  const menuPanel = usePanelRef()
  const menuWidth = useMenuWidth(menuPanel)
  const { pathname } = useLocation()
  const route = pathname.slice(`/project/${ref}`.length).replace(/\/+$/, '')
  const scroller = useRef<HTMLDivElement>(null)
  usePageScroll(scroller)

  const main = (
    <main id="main-content" className="project-main" tabIndex={-1}>
      {project ? <ResourceWarningBanner projectRef={ref} route={route} /> : null}
      <ProjectLoadGate query={query}>
        {project ? (
          <ProjectStatusGate key={ref} project={project} organization={organization} route={route}>
            <Outlet />
          </ProjectStatusGate>
        ) : null}
      </ProjectLoadGate>
    </main>
  )

  return (
    <div className="project-shell">
      <a className="skip-link" href="#main-content">
        Skip to main content
      </a>
      <ProjectTopBar
        projectRef={ref}
        project={project}
        organization={organization}
        rightPanel={panel}
        onTogglePanel={toggle}
        onOpenMenu={small ? () => setMenuOpen(true) : undefined}
      />
      <div className="project-body">
        {small ? (
          <>
            <div ref={scroller} className="project-panel-scroll project-group">
              {main}
            </div>
            {panel ? (
              <div className="side-panel-overlay">
                <SidePanel kind={panel} onClose={close} />
              </div>
            ) : null}
            <DialogPrimitive.Root open={menuOpen} onOpenChange={setMenuOpen}>
              <DialogPrimitive.Portal>
                <DialogPrimitive.Overlay className="dialog-overlay" />
                <DialogPrimitive.Content className="menu-sheet" aria-describedby={undefined}>
                  <div className="menu-sheet-header">
                    <DialogPrimitive.Title className="menu-sheet-title">Project menu</DialogPrimitive.Title>
                    <DialogPrimitive.Close asChild>
                      <IconButton size="sm" label="Close menu" icon={<X size={16} aria-hidden="true" />} />
                    </DialogPrimitive.Close>
                  </div>
                  <ProductMenu projectRef={ref} onNavigate={() => setMenuOpen(false)} />
                </DialogPrimitive.Content>
              </DialogPrimitive.Portal>
            </DialogPrimitive.Root>
          </>
        ) : (
          <Group
            orientation="horizontal"
            className="project-group"
            id="project-layout"
            onLayoutChanged={menuWidth.onLayoutChanged}
          >
            <Panel
              id="product-menu-panel"
              panelRef={menuPanel}
              defaultSize={menuWidth.defaultSize}
              minSize="180px"
              maxSize="33%"
            >
              <div className="project-menu-panel">
                <ProductMenu projectRef={ref} />
              </div>
            </Panel>
            <Separator className="resize-handle" aria-label="Resize product menu" />
            <Panel id="main-panel" minSize="30%">
              <div ref={scroller} className="project-panel-scroll">
                {main}
              </div>
            </Panel>
            {panel ? (
              <>
                <Separator className="resize-handle" aria-label="Resize side panel" />
                <Panel id="right-panel" defaultSize="35%" minSize="30%" maxSize="50%">
                  <SidePanel kind={panel} onClose={close} />
                </Panel>
              </>
            ) : null}
          </Group>
        )}
      </div>
    </div>
  )
}
