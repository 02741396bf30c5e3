import { createContext, useContext } from "react";

// The server renders with the request's nonce; in the browser the value is hidden by the
// browser and not needed, so it defaults to "".
const NonceContext = createContext<string>("");

export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
