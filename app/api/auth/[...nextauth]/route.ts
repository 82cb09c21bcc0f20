import { handlers } from "@/server/next-auth";

// next-auth's endpoints: sign-in callbacks, session, CSRF token, sign-out.
export const { GET, POST } = handlers;
