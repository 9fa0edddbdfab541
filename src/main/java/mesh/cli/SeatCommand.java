package mesh.cli;

import picocli.CommandLine.Command;

/** SeatCommand groups the verbs of the seat itself: the machine that holds the controller, the store and the keys. */
@Command(name = "seat",
        mixinStandardHelpOptions = true,
        description = {"The seat's own state: its standby, recovery passphrase and state backups.",
            "A state backup holds the store's content and the seat's keys, sealed under the recovery passphrase, so "
                    + "a mesh whose seat is lost can be raised again on another machine (docs/rebuild.md)."},
        subcommands = {SeatAddCommand.class, SeatPromoteCommand.class, SeatPassphraseCommand.class, SeatBackupCommand.class},
        footerHeading = "%nExamples:%n",
        footer = {"  mesh seat add n2",
            "      n2 becomes the seat's standby: its store streams from the seat's (docs/seat.md)",
            "  mesh seat promote n2",
            "      on n2, once the seat is lost",
            "  mesh seat passphrase < /root/recovery-passphrase",
            "      set or change the recovery passphrase, on the seat",
            "  mesh seat backup --to /mnt/usb/mesh-state.backup"})
public class SeatCommand {
}
