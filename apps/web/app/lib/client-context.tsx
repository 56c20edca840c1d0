import { createContext, useContext, type ReactNode } from "react";

export interface ClientContext<Client> {
  /** Hands the components below it another client (a fake one in tests and stories). */
  Provider: (props: { client: Client; children: ReactNode }) => ReactNode;
  /** The client a component calls for what it changes; what a page shows comes from its route's `clientLoader`. */
  useClient: () => Client;
}

/**
 * The one way the screens get a client (docs/decisions/0035-page-data-and-clients.md): each feature's client module
 * exports its instance, which only route modules' `clientLoader`/`clientAction` import, and a context made here, whose
 * default is that instance, for components. The auth client follows the same shape through `@atelier/auth/react`'s
 * `AuthProvider` and `useAuthClient()`.
 *
 * @example
 * export const studyClient = createStudyClient(siteHttp);
 * export const { Provider: StudyClientProvider, useClient: useStudyClient } = createClientContext(studyClient);
 */
export function createClientContext<Client>(defaultClient: Client): ClientContext<Client> {
  const Context = createContext<Client>(defaultClient);
  return {
    Provider: ({ client, children }) => <Context.Provider value={client}>{children}</Context.Provider>,
    useClient: () => useContext(Context),
  };
}
