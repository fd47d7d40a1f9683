import QuakeModel
import QuakeScenes
import QuakeStore

extension PersistentContainer {
    /// Takes the `agencyPreference` setting for the writers this container makes (issue 53):
    /// each event shows its reports' preferred solution in that order.
    func preferAgencies(from settings: AppStorage) {
        agencyPreference = settings.value(for: AppKeys.agencyPreference).flatMap(AgencyPreference.init(parsing:)) ?? .standard
    }

    /// The same, from the settings of the state directory `state` (unreadable settings: the default).
    func preferAgencies(state: StateDirectory) {
        if let settings = try? AppStorage(state: state) { preferAgencies(from: settings) }
    }
}
