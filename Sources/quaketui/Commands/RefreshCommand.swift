import Foundation
import QuakeFeed
import QuakeScenes
import QuakeModel
import QuakeStore
import QuakeTUI
import QuakeTUIRuntime

/// `quaketui refresh [FEED] [--json]`: download a USGS summary feed and import it.
enum RefreshCommand {
    static let spec = CommandSpec(
        name: "refresh",
        abstract: "Download a USGS summary feed and import it.",
        usage: ["refresh [<feed>] [--json]"],
        discussion: """
            FEED is {significant,4.5,2.5,1.0,all}_{hour,day,week,month}; the default is the app
            setting refreshFeed, else all_month. The feed streams into the store as it downloads;
            on any network or HTTP error nothing is changed. If the store holds the bundled
            sample catalogue, the import removes it (keeping the quakes with notes). QUAKETUI_FEED_BASE_URL replaces
            https://earthquake.usgs.gov/earthquakes/feed/v1.0/summary (for mirrors and tests).
            """,
        options: [CommandSpec.stateDir, CommandSpec.json],
        arguments: [.init(name: "feed", help: "A USGS summary feed such as all_day or 4.5_week.",
                          completion: .values(FeedLocation.summaryFeeds))])

    static func run(_ arguments: ParsedArguments) throws {
        if let feed = arguments.positionals.first, !FeedLocation.summaryFeeds.contains(feed) {
            let guess = Spelling.didYouMean(feed, in: FeedLocation.summaryFeeds)
            throw UsageError(message: "'\(SafeText.sanitize(feed))' is not a USGS summary feed"
                             + (guess.isEmpty ? "; use e.g. all_day, 4.5_week or significant_month." : "." + guess),
                             command: spec)
        }
        let state = try arguments.stateDirectory()
        // AppStorage falls back to all_month for a missing or invalid refreshFeed.
        let feed = try arguments.positionals.first ?? {
            // The feed setting decides what is fetched: never the default in place of an unreadable file.
            let settings = try AppStorage(state: state)
            try settings.requireReadable()
            return settings.value(for: AppKeys.refreshFeed)
        }()
        let container = try PersistentContainer(directory: state.url, upgrading: SchemaUpgrade.say)
        container.preferAgencies(state: state)
        defer { container.close() }
        let location = FeedLocation(argument: FeedLocation.summaryFeedURL(feed).absoluteString)
        let summary = try FeedImportRun.run(location, into: container, author: "refresh")
        try FeedImportRun.report(summary, json: arguments.has("json"))
    }
}
