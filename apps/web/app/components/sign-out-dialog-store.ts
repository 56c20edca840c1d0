import { create } from "zustand";

/** Opened by the user menu, shown by the SignOutDialog at the root (loaded only once it is first opened). */
export const useSignOutDialogStore = create<{ state: "open" | "closed"; setState: (state: "open" | "closed") => void }>((set) => ({
  state: "closed",
  setState: (state) => set({ state }),
}));
