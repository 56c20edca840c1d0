import type { ReactNode } from "react";

/** The frame of every account screen: a narrow column with the page's heading. */
export function AccountPage({ title, children, lead }: { title: string; lead?: ReactNode; children: ReactNode }) {
  return (
    <section className="page page--narrow account-page">
      <h1>{title}</h1>
      {lead ? <p className="page-subtitle">{lead}</p> : null}
      {children}
    </section>
  );
}
