package dev.plantstore.app;

import java.util.List;

/**
 * What the command line may ask for instead of a run: given anywhere among the arguments, the first of these in
 * their order is done and nothing else is read.
 */
enum Action {
    HELP("print this help and exit", "-h", "--help"),
    VERSION("print the version and the commit it was built from, and exit", "--version");

    private final String help;
    private final List<String> flags;

    Action(String help, String... flags) {
        this.help = help;
        this.flags = List.of(flags);
    }

    String help() {
        return help;
    }

    List<String> flags() {
        return flags;
    }
}
