import { useState, type ComponentType, type ReactNode } from "react";
import { createRoutesStub, useLoaderData, useRevalidator, type InitialEntry } from "react-router";

export interface RouteStoryProps<Data> {
  /**
   * The route's pattern and the address the story opens, e.g. "/study/:groupId/config" and "/study/film/config", or
   * a location with the navigation state a screen is reached with.
   */
  path: string;
  initialEntry: InitialEntry;
  /** The route's loader, called with the story's fake clients (the app's route calls it with `siteClients`). */
  load: () => Promise<Data>;
  /** The screen, given what the loader returned and a `reload` that runs the loader again. */
  Screen: ComponentType<{ data: Data; reload: () => void }>;
  Loading?: ComponentType;
  /** Wraps the screen inside the router: the fake clients' providers, an auth provider, the page's `main`. */
  wrap?: (screen: ReactNode) => ReactNode;
}

/** A screen as its route renders it: its loader, its revalidation, without the app's root. */
export function RouteStory<Data>({ path, initialEntry, load, Screen, Loading, wrap = (screen) => screen }: RouteStoryProps<Data>) {
  // Made once: a new stub on every render would remount the screen and lose its state.
  const [Stub] = useState(() => {
    function LoadedScreen() {
      const data = useLoaderData() as Data;
      const revalidator = useRevalidator();
      return <>{wrap(<Screen data={data} reload={() => void revalidator.revalidate()} />)}</>;
    }
    return createRoutesStub([{ path, Component: LoadedScreen, loader: load, HydrateFallback: Loading }]);
  });
  return <Stub initialEntries={[initialEntry]} />;
}
