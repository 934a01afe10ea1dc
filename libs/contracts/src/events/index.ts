export * from "./upcasters";
