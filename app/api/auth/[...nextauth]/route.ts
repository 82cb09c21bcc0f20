import { handlers } from "@/lib/auth/next-auth";

// next-auth's endpoints: sign-in callbacks, session, CSRF token, sign-out.
export const { GET, POST } = handlers;
