import type { ReactNode } from "react";
import { ProtectedRoute } from "@atelier/auth/react";
import { AccountPage } from "../../account/AccountPage.tsx";
import { accountPageMeta } from "../../account/account-meta.ts";
import { DataExportLoading, DataExportPage, loadDataExport } from "../../account/DataExportPage.tsx";
import { authStore } from "../../lib/auth.ts";
import { loadForSignedInUser } from "../../lib/guarded-load.ts";
import { GuardedLoading } from "../../lib/guarded-loading.tsx";
import { openLoginModalForProtectedPage } from "../../login-modal/login-modal-store.ts";
import { studyClient } from "../../study/study-client.ts";
import type { Route } from "./+types/export";

export const meta = accountPageMeta("Download your data");

export function clientLoader() {
  return loadForSignedInUser(authStore, () => loadDataExport(studyClient));
}

function DataExportFrame({ children }: { children: ReactNode }) {
  return (
    <AccountPage title="Download your data" lead="Everything Atelier keeps about you, to read or to take elsewhere.">
      {children}
    </AccountPage>
  );
}

export function HydrateFallback() {
  return (
    <GuardedLoading shownTo="signed-in">
      <DataExportFrame>
        <DataExportLoading />
      </DataExportFrame>
    </GuardedLoading>
  );
}

export default function DataExportRoute({ loaderData }: Route.ComponentProps) {
  return (
    <ProtectedRoute onUnauthenticated={openLoginModalForProtectedPage}>
      <DataExportFrame>
        {loaderData.state === "loaded" ? <DataExportPage data={loaderData.data} /> : <DataExportLoading />}
      </DataExportFrame>
    </ProtectedRoute>
  );
}
