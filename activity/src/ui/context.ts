import { createContext } from "preact";
import { useContext, useEffect, useState } from "preact/hooks";
import type { Controller } from "../controller";
import { Tr } from "../i18n";
import type { State } from "../store";

export interface Ctx {
  state: State;
  tr: Tr;
  ctl: Controller;
}

export const AppContext = createContext<Ctx | null>(null);

export function useApp(): Ctx {
  const ctx = useContext(AppContext);
  if (!ctx) throw new Error("no AppContext");
  return ctx;
}

/** The clock in unix seconds, ticking once a second while `on`. */
export function useNow(on: boolean): number {
  const [now, setNow] = useState(() => Date.now() / 1000);
  useEffect(() => {
    if (!on) return undefined;
    setNow(Date.now() / 1000);
    const timer = setInterval(() => setNow(Date.now() / 1000), 1000);
    return () => clearInterval(timer);
  }, [on]);
  return now;
}

/** The viewport size, updated on resize and rotation. */
export function useViewport(): { width: number; height: number } {
  const read = () => ({ width: window.innerWidth, height: window.innerHeight });
  const [size, setSize] = useState(read);
  useEffect(() => {
    const onResize = () => setSize(read());
    window.addEventListener("resize", onResize);
    return () => window.removeEventListener("resize", onResize);
  }, []);
  return size;
}
