export declare const OLDEST_NODE_MAJOR: number;
export declare function refuseUnsupportedNode(command: string): void;
