import { render } from "@testing-library/react";
import type { ComponentType } from "react";
import { createRoutesStub, useLoaderData, useRevalidator, type InitialEntry } from "react-router";
import type { StudyClient } from "@atelier/site-api";
import { StudyClientProvider } from "./study-client.ts";

type StubRoute = Parameters<typeof createRoutesStub>[0][number];

/**
 * A study screen as its route module renders it (decision 0035): `load` is the route's `clientLoader` given the test's
 * fake client, and `reload` revalidates, so a test sees the loader run again after a change.
 *
 * @example
 * renderStudyScreens(client, [studyScreen("/study/:groupId/session", (c) => loadFlashcardSession(c, "g1"), ...)], "/study/g1/session");
 */
export function studyScreen<Data>(path: string, load: (client: StudyClient) => Promise<Data>, Screen: ComponentType<{ data: Data; reload: () => void }>) {
  return (client: StudyClient): StubRoute => ({
    path,
    loader: () => load(client),
    HydrateFallback: () => null,
    Component: function LoadedScreen() {
      const data = useLoaderData() as Data;
      const { revalidate } = useRevalidator();
      return <Screen data={data} reload={() => void revalidate()} />;
    },
  });
}

/** Renders these screens in a memory router at `initialEntry` (a location with navigation state and key if need be). */
export function renderStudyScreens(client: StudyClient, screens: ((client: StudyClient) => StubRoute)[], initialEntry: InitialEntry) {
  const Stub = createRoutesStub(screens.map((screen) => screen(client)));
  return render(
    <StudyClientProvider client={client}>
      <Stub initialEntries={[initialEntry]} />
    </StudyClientProvider>,
  );
}
